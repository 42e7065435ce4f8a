/**
 * One HTTP/1.1 request written by hand on a TCP socket, for request targets no `fetch` sends as written
 * (`/x/..`, `/%2e%2e/`, backslashes): `fetch` resolves them first. `node:net` is there on Node, Bun and Deno.
 */
import { connect } from "node:net"

/** The answer: status code and the whole text after the status line. */
export interface RawAnswer {
  readonly status: number
  readonly text: string
}

/** Sends `method target` to the origin of `url` with a JSON body (for POST), `Connection: close`; bounded by `timeoutMs`. */
export const rawRequest = (url: string, method: string, target: string, body: string | undefined, timeoutMs: number): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const host = hostname.replace(/^\[|\]$/g, "")
    const socket = connect(Number(port), host)
    let received = ""
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`${method} ${target}: no complete answer within ${timeoutMs} ms (got ${JSON.stringify(received.slice(0, 200))})`))
    }, timeoutMs)
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => { received += chunk })
    socket.on("error", (e) => {
      clearTimeout(timer)
      reject(new Error(`${method} ${target}: ${e.message}`))
    })
    socket.on("close", () => {
      clearTimeout(timer)
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)
      if (status === null) return reject(new Error(`${method} ${target}: no HTTP answer (got ${JSON.stringify(received.slice(0, 200))})`))
      resolve({ status: Number(status[1]), text: received })
    })
    socket.on("connect", () => {
      const bytes = body === undefined ? "" : body
      const headers = [
        `${method} ${target} HTTP/1.1`,
        `Host: ${new URL(url).host}`,
        "Connection: close",
        ...(body === undefined ? [] : ["Content-Type: application/json", `Content-Length: ${new TextEncoder().encode(bytes).length}`])
      ]
      socket.write(`${headers.join("\r\n")}\r\n\r\n${bytes}`)
    })
  })
