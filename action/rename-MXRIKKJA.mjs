import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  applyTextEdits,
  editsByFile,
  lspRenameTool
} from "./chunk-6QMY3XLQ.mjs";
import "./chunk-AAPRIOHH.mjs";
import "./chunk-4DHRO7OB.mjs";
import "./chunk-ODBWBH3D.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  applyTextEdits,
  editsByFile,
  lspRenameTool
};
