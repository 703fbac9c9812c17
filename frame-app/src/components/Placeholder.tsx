/** An honest placeholder for a capability that a later release brings: says so, shows no fake data. */
export function Placeholder({ children }: { children: string }) {
  return <p className="placeholder">{children}</p>
}
