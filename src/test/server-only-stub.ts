// Vitest runs outside React Server Components; `server-only` would throw there.
export {};
