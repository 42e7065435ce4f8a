/**
 * Test support (not shipped API): a raw TCP client on 127.0.0.1 (node:net) that writes HTTP by hand,
 * so tests can send headers or a body as slowly as a misbehaving client would.
 *
 * @module
 */
import { connect, type Socket } from "node:net"

/** A raw client: what it received, and whether (and when) the server closed the connection. */
export interface RawClient {
  readonly socket: Socket
  readonly received: () => string
  /** Resolves with what was received once the connection is closed; rejects after `withinMs`. */
  readonly closed: (withinMs: number) => Promise<string>
}

/** Connects to 127.0.0.1:`port`; the client joins `opened`, so the test can destroy it afterwards. */
export const rawClient = async (port: number, opened: Array<RawClient>): Promise<RawClient> => {
  const socket = connect(port, "127.0.0.1")
  let received = ""
  socket.setEncoding("utf8")
  socket.on("data", (chunk: string) => { received += chunk })
  socket.on("error", () => undefined)
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()))
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve())
    socket.once("error", reject)
  })
  const client: RawClient = {
    socket,
    received: () => received,
    closed: (withinMs) =>
      Promise.race([
        ended.then(() => received),
        new Promise<string>((_, reject) =>
          setTimeout(() => reject(new Error(`still open after ${withinMs} ms; received ${JSON.stringify(received)}`)), withinMs))
      ])
  }
  opened.push(client)
  return client
}

/** Writes `piece` every `everyMs` until the socket closes or `count` pieces went out. */
export const trickle = (client: RawClient, piece: string, everyMs: number, count: number) => {
  let sent = 0
  const timer = setInterval(() => {
    if (client.socket.destroyed || sent >= count) return clearInterval(timer)
    client.socket.write(piece)
    sent++
  }, everyMs)
  client.socket.once("close", () => clearInterval(timer))
  return () => sent
}
