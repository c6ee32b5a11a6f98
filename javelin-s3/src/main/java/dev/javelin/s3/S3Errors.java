package dev.javelin.s3;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/** Turns the SDK's unchecked exceptions into the {@link IOException}s the ObjectStore API throws. */
final class S3Errors {
  private S3Errors() {}

  /** The status code of a service error, or 0 for a client-side failure (I/O, timeout). */
  static int status(SdkException e) {
    return e instanceof AwsServiceException ? ((AwsServiceException) e).statusCode() : 0;
  }

  /** The error code the service answered ({@code NoSuchKey}, {@code PreconditionFailed}...), or "". */
  static String code(SdkException e) {
    if (e instanceof AwsServiceException && ((AwsServiceException) e).awsErrorDetails() != null) {
      String code = ((AwsServiceException) e).awsErrorDetails().errorCode();
      return code == null ? "" : code;
    }
    return "";
  }

  /** Whether the service says the key (or the upload) is not there. */
  static boolean notFound(SdkException e) {
    return status(e) == 404;
  }

  /**
   * Whether a request that failed so may have been carried out all the same: the answer was
   * lost (an I/O failure or timeout after sending) or the server failed midway (5xx).
   */
  static boolean ambiguous(SdkException e) {
    int status = status(e);
    return status == 0 || status >= 500;
  }

  /** Whether trying again may succeed: throttling, 5xx, I/O failures and timeouts. */
  static boolean retryable(SdkException e) {
    int status = status(e);
    return e instanceof SdkClientException && !(e instanceof AbortedException) && !noCredentials(e)
        || status >= 500 || status == 429;
  }

  /** Whether the SDK's credential chain found nothing (no option, variable, profile or role). */
  static boolean noCredentials(SdkException e) {
    return e instanceof SdkClientException && e.getMessage() != null
        && e.getMessage().startsWith("Unable to load credentials");
  }

  /** {@code e} as an I/O exception about {@code what} (a missing key becomes {@link NoSuchFileException}). */
  static IOException io(SdkException e, String what) {
    if (notFound(e)) {
      NoSuchFileException out = new NoSuchFileException(what);
      out.initCause(e);
      return out;
    }
    if (e instanceof AbortedException || e.getCause() instanceof InterruptedException) {
      InterruptedIOException out = new InterruptedIOException("Interrupted: " + what);
      out.initCause(e);
      return out;
    }
    if (noCredentials(e)) {
      return new IOException("No AWS credentials for " + what + ": give the storage options aws_access_key_id and "
          + "aws_secret_access_key, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile or an instance role",
          e);
    }
    return new IOException("S3 request failed for " + what + ": " + e.getMessage(), e);
  }
}
