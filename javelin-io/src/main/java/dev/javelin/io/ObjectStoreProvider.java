package dev.javelin.io;

import java.net.URI;
import java.util.Set;

/**
 * Makes the stores of some URI schemes ({@code s3}, {@code az}, ...). Providers are found with
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/dev.javelin.io.ObjectStoreProvider}
 * file in the provider's jar), so a store comes with the module that has its SDK and nothing else
 * needs to know it: see {@link ObjectStores#open}.
 */
public interface ObjectStoreProvider {
  /** The URI schemes this provider opens, lower case ({@code "s3"}, {@code "s3a"}). */
  Set<String> schemes();

  /**
   * The store rooted at {@code location} (a dataset's directory: {@code s3://bucket/prefix}).
   * The caller closes it, which releases its clients and connections.
   *
   * @throws IllegalArgumentException naming the option or the part of the URI that is wrong
   */
  ObjectStore open(URI location, StorageOptions options);
}
