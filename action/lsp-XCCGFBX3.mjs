import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  lspFamily
} from "./chunk-6P6REO2E.mjs";
import "./chunk-5U7RLUSX.mjs";
import "./chunk-JDXO5HYH.mjs";
import "./chunk-BPDBDIEX.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-ZFU65C2O.mjs";
import "./chunk-GM75WCQG.mjs";
import "./chunk-WXOPQFFL.mjs";
import "./chunk-DME75M6N.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  lspFamily
};
