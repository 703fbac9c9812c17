/**
 * The custody split end to end, as the database would hold it (docs/embedded-wallet.md §2, hostile
 * test 5): no single party, and not the database with only one of its secrets, rebuilds a wallet.
 */
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import { describe, expect, test } from 'vitest'
import * as Envelope from './Envelope.js'

async function setup() {
  const kek = await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32)))
  const vault = await Seal.generateKeyPair()
  const secret = Shares.entropy()
  const address = Shares.evmAccount(secret).address
  const s = await Shares.splitTwice(secret)
  const aad = new TextEncoder().encode('user-1')
  // What the server stores: A and R1 under KEK_A, R2 sealed to the vault by the secure-site.
  const db = {
    deviceShare: await Envelope.encrypt(kek, s.server, 'user-1|device-1'),
    recovery1: await Envelope.encrypt(kek, s.recovery1, 'user-1'),
    recovery2: await Seal.seal(await Seal.exportPublicKey(vault.publicKey), s.recovery2, aad),
  }
  return { kek, vault, secret, address, s, db, aad }
}

describe('custody', () => {
  test('behavior: no stored row holds a share or the entropy in clear', async () => {
    const { s, db, secret } = await setup()
    const dump = Buffer.concat(Object.values(db)).toString('hex')
    for (const bytes of [secret, s.server, s.recovery1, s.recovery2, s.device]) expect(dump).not.toContain(Buffer.from(bytes).toString('hex'))
  })

  test('error: the database and KEK_A, without the vault or a device, cannot rebuild the wallet', async () => {
    const { kek, db, address } = await setup()
    const a = await Envelope.decrypt(kek, db.deviceShare, 'user-1|device-1')
    const r1 = await Envelope.decrypt(kek, db.recovery1, 'user-1')
    await expect(Shares.combine(a, r1, address)).rejects.toThrow('The shares do not rebuild this wallet')
  })

  test('error: the database and the vault key, without KEK_A, open only R2, which alone is nothing', async () => {
    const { vault, db, aad, s } = await setup()
    expect(await Seal.open(vault.privateKey, db.recovery2, aad)).toEqual(s.recovery2)
    const wrongKek = await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32)))
    await expect(Envelope.decrypt(wrongKek, db.recovery1, 'user-1')).rejects.toThrow()
    await expect(Envelope.decrypt(wrongKek, db.deviceShare, 'user-1|device-1')).rejects.toThrow()
  })

  test('behavior: a returning device (D plus A) and a recovery (R1 plus R2, server and vault together) rebuild it', async () => {
    // The second line is the residual risk the UI states: in automatic-recovery mode the operator's
    // server and vault together can recover (docs/embedded-wallet.md §2).
    const { kek, vault, db, aad, s, secret, address } = await setup()
    const a = await Envelope.decrypt(kek, db.deviceShare, 'user-1|device-1')
    expect(await Shares.combine(s.device, a, address)).toEqual(secret)
    const r1 = await Envelope.decrypt(kek, db.recovery1, 'user-1')
    const r2 = await Seal.open(vault.privateKey, db.recovery2, aad)
    expect(await Shares.combine(r1, r2, address)).toEqual(secret)
  })

  test('error: a share row copied to another user or device does not open', async () => {
    const { kek, db } = await setup()
    await expect(Envelope.decrypt(kek, db.deviceShare, 'user-2|device-1')).rejects.toThrow()
    await expect(Envelope.decrypt(kek, db.recovery1, 'user-2')).rejects.toThrow()
  })
})
