package org.dpsql.examples;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds the demo scripts ({@code *.sql}, run in file-name order).
 *
 * <p>Where to look, in order: the directory given on the command line; {@code sql-examples/scripts}
 * (working directory = repository root) or {@code scripts} (working directory = the module); the
 * {@code scripts/} folder on the class path (the module's jar carries a copy).
 */
public final class ScriptLocator {

  /** Class-path folder the pom copies the scripts into. */
  public static final String RESOURCE_FOLDER = "scripts";

  /** The scripts found, and where they came from (for the reader). */
  public record Scripts(String origin, List<SqlScript> scripts) {}

  private ScriptLocator() {}

  /**
   * Loads the scripts.
   *
   * @param directory an explicit directory, or {@code null} to search the default places
   * @throws IOException if the explicit directory has no scripts, or none are found at all
   */
  public static Scripts load(Path directory) throws IOException {
    if (directory != null) {
      List<SqlScript> scripts = fromDirectory(directory);
      if (scripts.isEmpty()) {
        throw new IOException("no *.sql scripts in " + directory.toAbsolutePath());
      }
      return new Scripts(directory.toAbsolutePath().normalize().toString(), scripts);
    }
    for (Path candidate : List.of(Path.of("sql-examples", "scripts"), Path.of("scripts"))) {
      if (Files.isDirectory(candidate)) {
        List<SqlScript> scripts = fromDirectory(candidate);
        if (!scripts.isEmpty()) {
          return new Scripts(candidate.toAbsolutePath().normalize().toString(), scripts);
        }
      }
    }
    List<SqlScript> scripts = fromClassPath();
    if (scripts.isEmpty()) {
      throw new IOException(
          "no demo scripts found: not in ./sql-examples/scripts, ./scripts, nor on the class path;"
              + " use --scripts <dir>");
    }
    return new Scripts("classpath:" + RESOURCE_FOLDER + "/", scripts);
  }

  private static List<SqlScript> fromDirectory(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      throw new IOException("not a directory: " + directory.toAbsolutePath());
    }
    List<Path> files;
    try (Stream<Path> list = Files.list(directory)) {
      files =
          list.filter(p -> p.getFileName().toString().endsWith(".sql") && Files.isRegularFile(p))
              .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
              .toList();
    }
    List<SqlScript> scripts = new ArrayList<>();
    for (Path file : files) {
      scripts.add(SqlScript.read(file));
    }
    return scripts;
  }

  private static List<SqlScript> fromClassPath() throws IOException {
    ClassLoader loader = ScriptLocator.class.getClassLoader();
    URL folder = loader.getResource(RESOURCE_FOLDER);
    if (folder == null) {
      return List.of();
    }
    if ("file".equals(folder.getProtocol())) {
      try {
        return fromDirectory(Path.of(folder.toURI()));
      } catch (URISyntaxException e) {
        throw new IOException("bad class-path location " + folder, e);
      }
    }
    if ("jar".equals(folder.getProtocol())) {
      List<String> names = new ArrayList<>();
      JarURLConnection connection = (JarURLConnection) folder.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
          String name = entries.nextElement().getName();
          if (name.startsWith(RESOURCE_FOLDER + "/") && name.endsWith(".sql")
              && name.indexOf('/', RESOURCE_FOLDER.length() + 1) < 0) {
            names.add(name);
          }
        }
      }
      names.sort(null);
      List<SqlScript> scripts = new ArrayList<>();
      for (String name : names) {
        try (InputStream in = loader.getResourceAsStream(name)) {
          if (in == null) {
            continue;
          }
          String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          scripts.add(SqlScript.parse(name.substring(name.lastIndexOf('/') + 1), text));
        }
      }
      return scripts;
    }
    return List.of();
  }
}
