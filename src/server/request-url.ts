/**
 * A request's target (`request.url`, e.g. `/v1/tasks/t1?historyLength=2`) read as a URL.
 *
 * The target of an ordinary request is a path and a query (RFC 9112 origin-form). Resolving it as a URL
 * reference against a base, `new URL(target, base)`, misreads a path that starts with `//`: `//v1/card`
 * becomes host `v1`, path `/card`, and `//` alone throws. Here the path is always the path.
 */

const origin = "http://localhost"

/**
 * The URL of a request target: an origin-form target keeps its whole path (`//x` stays `//x`), an
 * absolute-form one (`http://host/path`, sent to proxies) is parsed as is, and anything else (`*`, garbage)
 * reads as `/`. Never throws.
 *
 * @example
 * requestUrl("//v1/card").pathname // "//v1/card"
 * requestUrl("/v1/tasks/t1?historyLength=2").searchParams.get("historyLength") // "2"
 */
export const requestUrl = (target: string): URL => {
  try {
    return target.startsWith("/") ? new URL(`${origin}${target}`) : new URL(target)
  } catch {
    return new URL(`${origin}/`)
  }
}
