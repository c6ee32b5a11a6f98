package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Without S3Mock's jar (this module's build does not copy it) the server fails, saying why, rather
 * than letting the tests that need it pass or skip. javelin-s3's tests start it for real.
 */
class S3MockServerTest {
  @Test
  void withoutItsJarTheServerFailsSayingWhy() {
    assertThat(System.getProperty(S3MockServer.JAR_PROPERTY)).isNull();
    assertThatThrownBy(S3MockServer::shared)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("S3MockServer needs the system property javelin.s3mock.jar: the path of com.adobe.testing:s3mock's"
            + " exec jar (copied by the maven-dependency-plugin; see javelin-s3's pom for the configuration to reuse)");
    assertThatThrownBy(S3MockServer::shared)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("S3Mock could not be started earlier in this JVM: S3MockServer needs the system");
  }
}
