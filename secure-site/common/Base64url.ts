/**
 * base64url without padding (RFC 4648 §5), the one encoding for bytes between the secure-site and its
 * server: the same code in the browser and on Node (no Buffer). `import * as Base64url from '@doorway/secure-site/common/Base64url'`.
 */
export function encode(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The bytes, or an error for text that is not base64url. */
export function decode(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[\w-]*$/.test(text)) throw new Error('Not base64url')
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}
