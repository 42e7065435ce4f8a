/**
 * A push transport on `node:http` / `node:https` that connects to the address the guard checked
 * (through the `lookup` hook) while keeping the URL's host name for the Host header, TLS SNI and
 * certificate checks. Runs on Node, Bun and Deno (their `node:` modules), but being Node-specific it
 * belongs with the runtime adapters.
 *
 * @module
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { parseIp } from "../push/ip-address.ts"
import type { PushTransport } from "../push/push-transport.ts"

/** Options of {@link nodePushTransport}. */
export interface NodePushTransportOptions {
  /** Extra trusted CAs for https webhooks (tests, private PKI). */
  readonly ca?: string | ReadonlyArray<string>
}

/**
 * Makes the pinning transport, for http and https alike: the default transport (Web `fetch`) can
 * pin http only. Redirects are never followed (`node:http` does not follow them).
 *
 * @example
 * const server = await A2AServer.make(agent, {
 *   push: { resolveDns: nodeDnsResolver, transport: nodePushTransport() }
 * })
 */
export const nodePushTransport = (options: NodePushTransportOptions = {}): PushTransport => (request) =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url)
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
    const family = request.address.includes(":") ? 6 : 4
    const lookup: LookupFunction = (_host, opts, callback) => {
      if (opts.all === true) callback(null, [{ address: request.address, family }])
      else callback(null, request.address, family)
    }
    const secure = url.protocol === "https:"
    const common = {
      host: hostname,
      port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...request.headers, "content-length": String(new TextEncoder().encode(request.body).length) },
      lookup,
      agent: false as const,
      ...(request.signal === undefined ? {} : { signal: request.signal })
    }
    const onResponse = (response: http.IncomingMessage) => {
      clearTimeout(timer)
      response.resume()
      resolve({ status: response.statusCode ?? 0 })
    }
    const req = secure
      ? https.request({
        ...common,
        // SNI carries a host name only; an IP-literal URL is checked against the certificate's IP SANs.
        ...(parseIp(hostname) === undefined ? { servername: hostname } : {}),
        ...(options.ca === undefined ? {} : { ca: typeof options.ca === "string" ? options.ca : [...options.ca] })
      }, onResponse)
      : http.request(common, onResponse)
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${request.timeoutMs} ms`)), request.timeoutMs)
    req.on("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    req.end(request.body)
  })
