import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  applyTextEdits,
  editsByFile,
  lspRenameTool
} from "./chunk-WD6TYM4U.mjs";
import "./chunk-MDU5FFST.mjs";
import "./chunk-SWJI4TFH.mjs";
import "./chunk-KFTQKZEH.mjs";
import "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  applyTextEdits,
  editsByFile,
  lspRenameTool
};
