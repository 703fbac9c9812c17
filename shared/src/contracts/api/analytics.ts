/** The answers of spec §7's analytics routes, which the api gives and the frame checks; the table is contracts/api.ts. */
import * as S from '../Described.js'

/** GET /getAnalyticsConfig: whether the project wants events at all. */
export const analyticsConfig = S.object({ isAnalyticsEnabled: S.boolean })

export type AnalyticsEvent = { eventId: string; url: string; domain: string; timestamp: number; props: Record<string, unknown> }
