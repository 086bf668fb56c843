/**
 * What a hook script loads into its own interpreter (issue 39): the modules a python script imports
 * and the files a JS/TS script requires or imports, with the absent files that would be loaded
 * instead if someone created them. Pure resolvers over one file's text: the caller reads each
 * included file and asks again.
 */
export type { Includes } from './imports-common.js';
export { jsIncludes } from './imports-js.js';
export { pythonIncludes } from './imports-python.js';
