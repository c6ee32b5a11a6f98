package dev.javelin.azure;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/** A test pipeline policy that fails every block upload after the first few, as a dead network does. */
final class FailBlocks implements HttpPipelinePolicy {
  private final AtomicInteger okLeft;

  FailBlocks(int ok) {
    this.okLeft = new AtomicInteger(ok);
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    String query = String.valueOf(context.getHttpRequest().getUrl().getQuery());
    if (context.getHttpRequest().getHttpMethod() == HttpMethod.PUT && query.contains("comp=block")
        && !query.contains("comp=blocklist") && okLeft.getAndDecrement() <= 0) {
      return Mono.error(new IOException("network down (injected)"));
    }
    return next.process();
  }
}
