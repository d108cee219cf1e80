/**
 * The data owner's privacy policy: reading the YAML file (contract §3), checking it against the
 * backend's schema, and the immutable model the rest of the engine consults.
 *
 * <p>Entry point: {@link org.dpsql.policy.PolicyLoader#load}. Every refusal is a {@link
 * java.sql.SQLException} with SQLState {@code XDP04} and a message {@code policy <source>: <key
 * path>: <reason>}.
 */
package org.dpsql.policy;
