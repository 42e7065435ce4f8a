/**
 * The system's host name resolution (`node:dns` lookup, as connections use it), for the loopback check.
 *
 * @module
 */
import { lookup } from "node:dns/promises"
import type { HostResolver } from "./loopback.ts"

/** Every address the system resolves `hostname` to. */
export const systemResolver: HostResolver = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address)
