package main

import "regexp"

const email = `^([a-z]+\.?)+@x$`

var re = regexp.MustCompile(email)

func dynamic(p string) *regexp.Regexp { return regexp.MustCompile(p) }
