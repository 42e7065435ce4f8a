/**
 * A TCP proxy on 127.0.0.1, port 0, that cuts one connection on purpose: the first connection whose
 * request is a stream request (`message/stream` by default; see `CutMarkers` for 1.0 and REST) is destroyed
 * on both sides right after a response chunk containing `cutAfter` has been forwarded. Used to break a stream of the SDK server mid-way, as a network failure
 * would.
 *
 * @module
 */
import { connect, createServer, type Socket } from "node:net"
import type { AddressInfo } from "node:net"

/** A running proxy. */
export interface CuttingProxy {
  /** `http://127.0.0.1:<port>`: the target's URLs with this origin go through the proxy. */
  readonly origin: string
  /** Connections cut so far. */
  readonly cuts: () => number
  /** Calls `listener` once a resubscription's snapshot starts flowing back through the proxy. */
  readonly onResubscribeAnswered: (listener: () => void) => void
  readonly close: () => Promise<void>
}

/** How the proxy recognises a stream request, a resubscription, and the snapshot that answers it. */
export interface CutMarkers {
  readonly stream: string
  readonly resubscribe: string
  readonly snapshot: string
}

/** The markers of A2A 0.3 over JSON-RPC. */
export const jsonRpc03Markers: CutMarkers = { stream: '"method":"message/stream"', resubscribe: '"method":"tasks/resubscribe"', snapshot: '"kind":"task"' }

/** Starts a proxy to `target` (`host:port`). */
export const startCuttingProxy = async (targetPort: number, cutAfter: string, markers: CutMarkers = jsonRpc03Markers): Promise<CuttingProxy> => {
  let cuts = 0
  let listeners: Array<() => void> = []
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1")
    sockets.add(client).add(upstream)
    let streaming = false
    let resubscribing = false
    client.on("data", (data: Buffer) => {
      const text = data.toString("utf8")
      if (text.includes(markers.stream) && cuts === 0) streaming = true
      if (text.includes(markers.resubscribe)) resubscribing = true
      upstream.write(data)
    })
    upstream.on("data", (data: Buffer) => {
      const text = data.toString("utf8")
      if (streaming && text.includes(cutAfter)) {
        streaming = false
        cuts++
        client.write(data, () => {
          client.destroy()
          upstream.destroy()
        })
        return
      }
      client.write(data)
      if (resubscribing && text.includes(markers.snapshot)) {
        resubscribing = false
        const waiting = listeners
        listeners = []
        for (const listener of waiting) listener()
      }
    })
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on("close", end).on("error", end)
    upstream.on("close", end).on("error", end)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    cuts: () => cuts,
    onResubscribeAnswered: (listener) => void listeners.push(listener),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}
