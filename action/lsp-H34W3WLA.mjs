import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  lspFamily
} from "./chunk-RWMUI5OX.mjs";
import "./chunk-U2ZNDUQ6.mjs";
import "./chunk-JDXO5HYH.mjs";
import "./chunk-UPKHGTAR.mjs";
import "./chunk-OLXHW4EY.mjs";
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
