import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  lspFamily
} from "./chunk-XLAN4CF5.mjs";
import "./chunk-U2ZNDUQ6.mjs";
import "./chunk-JDXO5HYH.mjs";
import "./chunk-5ZNDS5TG.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-TGNQB3OB.mjs";
import "./chunk-SFJCEGFA.mjs";
import "./chunk-KFTQKZEH.mjs";
import "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  lspFamily
};
