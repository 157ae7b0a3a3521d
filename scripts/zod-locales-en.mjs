// What the bundle gives for zod's `locales` namespace (scripts/bundle.mjs): English alone, the
// language zod sets itself on its first schema.
export { default as en } from 'zod/v4/locales/en.js';
