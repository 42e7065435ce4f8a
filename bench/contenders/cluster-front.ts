/**
 * The cluster's front in a process of its own for the bench (so it does not share the load client's
 * event loop): `--backends <url,url,...>`, announced like every contender.
 */
import { startFront } from "../../examples/cluster/front.ts"
import { announce, argValue } from "./control.ts"

const urls = (argValue("backends") ?? "").split(",").filter((u) => u !== "")
const front = await startFront({ backends: urls.map((url, i) => ({ name: `instance-${i + 1}`, url })) })
announce(front.url)
