/**
 * A loopback port free right now, for tests of servers that must know their public URL before
 * they listen (a signed card names `publicUrl`, which is fixed when the server is built).
 *
 * @module
 */
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"

/** Binds port 0 on 127.0.0.1, notes the port the system chose and releases it. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
