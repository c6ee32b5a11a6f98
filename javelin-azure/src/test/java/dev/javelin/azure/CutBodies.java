package dev.javelin.azure;

import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.FluxUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A test pipeline policy that cuts the bodies of the next few GET responses after some bytes, as
 * a connection reset midway through a download does.
 */
final class CutBodies implements HttpPipelinePolicy {
  private final AtomicInteger cutsLeft;
  private final long keep;
  final AtomicInteger cuts = new AtomicInteger();

  CutBodies(int cuts, long keep) {
    this.cutsLeft = new AtomicInteger(cuts);
    this.keep = keep;
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    boolean get = context.getHttpRequest().getHttpMethod() == HttpMethod.GET
        && !String.valueOf(context.getHttpRequest().getUrl().getQuery()).contains("comp=");
    return next.process().map(r -> get && r.getStatusCode() / 100 == 2 && cutsLeft.getAndDecrement() > 0
        ? new Cut(r) : r);
  }

  private final class Cut extends HttpResponse {
    private final HttpResponse inner;

    Cut(HttpResponse inner) {
      super(inner.getRequest());
      this.inner = inner;
    }

    @Override
    public int getStatusCode() {
      return inner.getStatusCode();
    }

    @Override
    @SuppressWarnings("deprecation")
    public String getHeaderValue(String name) {
      return inner.getHeaderValue(name);
    }

    @Override
    public HttpHeaders getHeaders() {
      return inner.getHeaders();
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      AtomicLong left = new AtomicLong(keep);
      return inner.getBody().concatMap(b -> {
        long l = left.get();
        if (b.remaining() <= l) {
          left.addAndGet(-b.remaining());
          return Flux.just(b);
        }
        ByteBuffer head = b.duplicate();
        head.limit(head.position() + (int) l);
        left.set(0);
        cuts.incrementAndGet();
        return Flux.just(head).concatWith(Flux.error(new IOException("connection reset (injected)")));
      });
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return FluxUtil.collectBytesInByteBufferStream(getBody());
    }

    @Override
    public Mono<String> getBodyAsString() {
      return getBodyAsByteArray().map(String::new);
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return getBodyAsByteArray().map(b -> new String(b, charset));
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
