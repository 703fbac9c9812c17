/** The wallet's EIP-6963 icon: a small door on a blue tile, as a data URI (EIP-6963 asks for one). */
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="8" fill="#2457d6"/>' +
  '<path d="M10 26V7.5L20 6v20.5z" fill="#fff"/><path d="M20 8h3v18h-3" fill="none" stroke="#fff" stroke-width="1.5"/>' +
  '<circle cx="17.5" cy="16.5" r="1.2" fill="#2457d6"/></svg>'

export const dataUri = `data:image/svg+xml;base64,${btoa(svg)}`
