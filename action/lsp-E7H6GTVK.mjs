import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  lspFamily
} from "./chunk-REBN6ZI2.mjs";
import "./chunk-U2ZNDUQ6.mjs";
import "./chunk-JDXO5HYH.mjs";
import "./chunk-ZDS7P5QW.mjs";
import "./chunk-WRTGE5IQ.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-WD6TYM4U.mjs";
import "./chunk-MDU5FFST.mjs";
import "./chunk-SWJI4TFH.mjs";
import "./chunk-KFTQKZEH.mjs";
import "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  lspFamily
};
