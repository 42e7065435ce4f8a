/**
 * A collector for the traced contender: takes every OTLP/HTTP export and answers 200, reading and dropping
 * the body. It runs in the bench's own process, so what the traced server spends is the server's only.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** A running sink: its base URL (for `OTEL_EXPORTER_OTLP_ENDPOINT`) and the bytes it took. */
export interface OtlpSink {
  readonly url: string
  readonly bytes: () => number
  readonly close: () => Promise<void>
}

/** Starts a sink on 127.0.0.1, port 0. */
export const startOtlpSink = async (): Promise<OtlpSink> => {
  let bytes = 0
  const server = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => void (bytes += chunk.length))
    req.once("end", () => res.writeHead(200, { "content-type": "application/x-protobuf" }).end())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
