import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  child_process,
  crypto,
  fs,
  os,
  path,
  stream,
  util
} from "./chunk-R3MNR4KX.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  child_process,
  crypto,
  fs,
  os,
  path,
  stream,
  util
};
