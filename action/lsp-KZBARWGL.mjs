import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  lspFamily
} from "./chunk-CGSKVH2H.mjs";
import "./chunk-U2ZNDUQ6.mjs";
import "./chunk-JDXO5HYH.mjs";
import "./chunk-72GPEP2J.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-6QMY3XLQ.mjs";
import "./chunk-AAPRIOHH.mjs";
import "./chunk-4DHRO7OB.mjs";
import "./chunk-ODBWBH3D.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  lspFamily
};
