package org.dpsql.backend;

/** A column of a backend table as the backend's {@code DatabaseMetaData} describes it. */
public record BackendColumn(
    String name, int jdbcType, String typeName, int precision, int scale, boolean nullable) {}
