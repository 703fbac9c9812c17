/**
 * A QR code as one SVG path, dark on light whatever the theme (scanners need the contrast), with the
 * wallet's logo in the middle. Error correction Q (25 %) keeps it readable with the logo's hole.
 */
import { encode } from 'uqr'
import { useEffect, useMemo } from 'react'
import { WalletIcon } from './WalletIcon.js'
import './QrCode.css'

/** Set when a QR is painted: `npm run bench` measures choosing WalletConnect to this mark. */
export const qrVisibleMark = 'doorway:qr-visible'

// The logo covers at most this share of the width; well inside what level Q recovers.
const logoShare = 0.22
const quiet = 2

export function QrCode({ value, label, logo }: { value: string; label: string; logo?: string | undefined }) {
  const { size, path } = useMemo(() => draw(value), [value])
  useEffect(() => void requestAnimationFrame(() => performance.mark(qrVisibleMark)), [value])
  const box = size + quiet * 2
  return (
    <figure className="qr">
      <svg role="img" aria-label={label} viewBox={`0 0 ${box} ${box}`} shapeRendering="crispEdges">
        <rect width={box} height={box} fill="#fff" />
        <path d={path} fill="#000" transform={`translate(${quiet} ${quiet})`} />
      </svg>
      <span className="qr-logo" aria-hidden="true">
        <WalletIcon src={logo} size={48} />
      </span>
    </figure>
  )
}

/** The dark modules as `M x y h1 v1 h-1 z` squares, leaving the centre free for the logo. */
export function draw(value: string): { size: number; path: string } {
  const { size, data } = encode(value, { ecc: 'Q', border: 0 })
  const hole = Math.ceil(size * logoShare)
  const from = Math.floor((size - hole) / 2)
  const inHole = (n: number) => n >= from && n < from + hole
  let path = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark && !(inHole(x) && inHole(y))) path += `M${x} ${y}h1v1h-1z`
    }),
  )
  return { size, path }
}
