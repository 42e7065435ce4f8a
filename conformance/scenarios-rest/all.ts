import { errorScenarios } from "./errors.ts"
import type { RestScenario } from "./harness.ts"
import { kitScenarios } from "./kit.ts"
import { pushScenarios } from "./push.ts"
import { sendScenarios } from "./send.ts"
import { streamScenarios } from "./streams.ts"
import { taskScenarios } from "./tasks.ts"

/** Every REST scenario, grouped by area in a stable order. */
export const allRestScenarios: ReadonlyArray<RestScenario> = [
  ...sendScenarios,
  ...taskScenarios,
  ...streamScenarios,
  ...pushScenarios,
  ...errorScenarios,
  ...kitScenarios
]
