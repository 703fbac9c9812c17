import { atom } from 'jotai'
import * as Client from '../api/client.js'
import { configAtom } from './config.js'

declare const __DOORWAY_API_URL__: string

/** The api client for this modal's project (one per store, rebuilt if the config changes). */
export const apiAtom = atom((get) => {
  const config = get(configAtom)
  return Client.create({
    baseUrl: __DOORWAY_API_URL__,
    projectId: config?.projectId,
    sdkType: config?.sdkType ?? 'appkit',
    sdkVersion: config?.sdkVersion ?? 'unknown',
  })
})
