package dev.javelin.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import dev.javelin.io.RequestCounters;
import dev.javelin.io.RequestCounters.Kind;
import reactor.core.publisher.Mono;

/**
 * Counts every request the SDK sends (each try of a retried one: it sits after the retry policy)
 * by kind, from its method and {@code comp} parameter, with the payload bytes it sent or received.
 */
final class CountingPolicy implements HttpPipelinePolicy {
  private static final HttpHeaderName COPY_SOURCE = HttpHeaderName.fromString("x-ms-copy-source");
  private static final HttpHeaderName SOURCE_RANGE = HttpHeaderName.fromString("x-ms-source-range");

  private final RequestCounters counters;

  CountingPolicy(RequestCounters counters) {
    this.counters = counters;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    HttpRequest request = context.getHttpRequest();
    return next.process().doOnNext(response -> record(request, response));
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    HttpRequest request = context.getHttpRequest();
    HttpResponse response = next.processSync();
    record(request, response);
    return response;
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  private void record(HttpRequest request, HttpResponse response) {
    String copySource = request.getHeaders().getValue(COPY_SOURCE);
    if (copySource != null && request.getHttpMethod() == HttpMethod.PUT) {
      counters.record(Kind.COPY, RequestCounters.rangeLength(request.getHeaders().getValue(SOURCE_RANGE)));
      return;
    }
    Kind kind = kindOf(request.getHttpMethod(), request.getUrl().getQuery());
    long bytes = kind == Kind.GET ? length(response.getHeaderValue(HttpHeaderName.CONTENT_LENGTH))
        : kind == Kind.PUT ? length(request.getHeaders().getValue(HttpHeaderName.CONTENT_LENGTH)) : 0;
    counters.record(kind, bytes);
  }

  static Kind kindOf(HttpMethod method, String query) {
    String comp = param(query, "comp");
    switch (method) {
      case GET:
        return "list".equals(comp) ? Kind.LIST : Kind.GET;
      case HEAD:
        return Kind.HEAD;
      case PUT:
        return "blocklist".equals(comp) ? Kind.MULTIPART : Kind.PUT;
      case DELETE:
        return Kind.DELETE;
      case POST:
        return "batch".equals(comp) ? Kind.DELETE : Kind.PUT;
      default:
        return Kind.GET;
    }
  }

  private static String param(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String p : query.split("&")) {
      if (p.startsWith(name + "=")) {
        return p.substring(name.length() + 1);
      }
    }
    return null;
  }

  private static long length(String header) {
    if (header == null) {
      return 0;
    }
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
