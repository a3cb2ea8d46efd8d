// A fixture for `stallbench regex --scan`: regex literals and constant RegExp constructions are
// found with their line; a RegExp built from a variable is reported as dynamic and skipped.
'use strict';
const nested = /^(a+)+$/;

function digits(text) {
  return new RegExp('^\\d+' + '$').test(text);
}

function dynamic(word) {
  return new RegExp(word, 'i');
}

module.exports = { nested, digits, dynamic };
