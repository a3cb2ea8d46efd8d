const nested = /^(a+)+$/;
module.exports = { nested };
