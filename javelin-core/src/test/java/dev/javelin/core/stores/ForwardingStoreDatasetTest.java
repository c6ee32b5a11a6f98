package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.io.StorageOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The dataset API on a store that is not a local one, reached by URI through a provider. */
class ForwardingStoreDatasetTest extends StoreDatasetContract {
  @TempDir Path dir;
  private final String root = "r" + UUID.randomUUID().toString().replace("-", "");

  @BeforeEach
  void register() {
    ForwardingStoreProvider.ROOTS.put(root, dir);
  }

  @AfterEach
  void optionsReachedTheProvider() {
    assertThat(ForwardingStoreProvider.OPENED_WITH.get(root)).isEqualTo(StorageOptions.of(options()));
    ForwardingStoreProvider.ROOTS.remove(root);
  }

  @Override
  protected String uri(String name) {
    return "fwd://" + root + "/" + name;
  }

  @Override
  protected boolean countsRequests() {
    return false;
  }

  @Override
  protected Map<String, String> options() {
    return Map.of("fwd_option", "yes");
  }
}
