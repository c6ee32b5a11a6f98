/**
 * Lance schemas: fields with their Lance ids and logical types, and their mapping to Arrow.
 */
package dev.javelin.format.schema;
