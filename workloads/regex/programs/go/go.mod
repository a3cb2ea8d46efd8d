module stallbench/regexserver

go 1.19
