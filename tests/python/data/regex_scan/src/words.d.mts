// A TypeScript declaration file: types only, no code that runs a regex (skipped as such).
export declare function words(text: string, pattern?: RegExp): string[];
export declare const WORD: RegExp;
export default words;
