package dev.javelin.testing;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreContractTest extends ObjectStoreContract {
  @TempDir Path dir;

  @Override
  protected ObjectStore newStore() throws Exception {
    return new LocalObjectStore(Files.createTempDirectory(dir, "store"));
  }

  // Local commits take microseconds: race harder, as the local store's own test used to.
  @Override
  protected int raceRounds() {
    return 20;
  }

  @Override
  protected int raceThreads() {
    return 16;
  }
}
