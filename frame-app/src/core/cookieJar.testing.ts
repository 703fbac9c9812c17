/**
 * Tests only: a cookie jar that behaves like `document.cookie` (writes set one cookie, reads list them
 * all), for the frame's cookie storage. `cookies` holds the jar, `writes` every line written.
 */
export function cookieJar() {
  const cookies = new Map<string, string>()
  const writes: string[] = []
  return {
    cookies,
    writes,
    get cookie() {
      return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    },
    set cookie(line: string) {
      writes.push(line)
      const [pair = ''] = line.split('; ')
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]
      if (line.includes('Max-Age=0')) cookies.delete(name)
      else cookies.set(name, value)
    },
  }
}
