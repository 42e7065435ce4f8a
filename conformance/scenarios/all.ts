import { cancelScenarios } from "./cancel.ts"
import { cardScenarios } from "./card.ts"
import { errorScenarios } from "./errors.ts"
import { getScenarios } from "./get.ts"
import { kitScenarios } from "./kit.ts"
import type { Scenario } from "./harness.ts"
import { malformedScenarios } from "./malformed.ts"
import { pushScenarios } from "./push.ts"
import { resubscribeScenarios } from "./resubscribe.ts"
import { sendScenarios } from "./send.ts"
import { streamScenarios } from "./stream.ts"
import { targetScenarios } from "./targets.ts"

/** Every black-box scenario, grouped by area in a stable order. */
export const allScenarios: ReadonlyArray<Scenario> = [
  ...cardScenarios,
  ...sendScenarios,
  ...getScenarios,
  ...cancelScenarios,
  ...streamScenarios,
  ...resubscribeScenarios,
  ...pushScenarios,
  ...errorScenarios,
  ...targetScenarios,
  ...malformedScenarios,
  ...kitScenarios
]
