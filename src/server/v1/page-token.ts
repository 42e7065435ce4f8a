/**
 * `ListTasks` page tokens: the cursor of the last task of a page (status timestamp and id), as base64url JSON.
 * Opaque to clients; a token this server did not issue is InvalidParams.
 *
 * @module
 */
import { Result } from "effect"
import { InvalidParams } from "../../../schemas/error-catalogue.ts"
import type { TaskCursor } from "../../runtime/task-store.ts"

const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })

const toBase64url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

const fromBase64url = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
    return Uint8Array.from(binary, (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** The token of a cursor. */
export const encodePageToken = (cursor: TaskCursor): string => toBase64url(encoder.encode(JSON.stringify([cursor.timestamp, cursor.id])))

const refused = new InvalidParams({ message: "Invalid params (A2A 1.0): pageToken is not a token this server issued" })

/** The cursor of a token; `""` (or none) is the first page. */
export const decodePageToken = (token: string | undefined): Result.Result<TaskCursor | undefined, InvalidParams> => {
  if (token === undefined || token === "") return Result.succeed(undefined)
  if (token.length > 2_048) return Result.fail(refused)
  const bytes = fromBase64url(token)
  if (bytes === undefined) return Result.fail(refused)
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes))
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") {
      return Result.succeed({ timestamp: value[0], id: value[1] })
    }
  } catch {
    // not JSON: refused below
  }
  return Result.fail(refused)
}
