import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  applyTextEdits,
  editsByFile,
  lspRenameTool
} from "./chunk-FP4VYGLC.mjs";
import "./chunk-AAPRIOHH.mjs";
import "./chunk-C2Q33UYM.mjs";
import "./chunk-ODBWBH3D.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  applyTextEdits,
  editsByFile,
  lspRenameTool
};
