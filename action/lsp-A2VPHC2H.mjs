import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  lspFamily
} from "./chunk-I3E7CMJK.mjs";
import "./chunk-U2ZNDUQ6.mjs";
import "./chunk-JDXO5HYH.mjs";
import "./chunk-YELE2N65.mjs";
import "./chunk-2ZZLC3XA.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-BQRX2BXM.mjs";
import "./chunk-Z47US34S.mjs";
import "./chunk-EABGHHZK.mjs";
import "./chunk-KFTQKZEH.mjs";
import "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  lspFamily
};
