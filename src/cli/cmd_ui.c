/*
 * cmd_ui.c - `raidlab ui`: the options, then src/ui/ serves the page.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ui/ui.h"

static const char ui_usage[] =
    "usage: raidlab ui [--port N] [--listen ADDR] [--ready-file FILE] [--no-browser]\n"
    "                  [--results DIR]\n"
    "\n"
    "Serves a local web application and opens it in the browser: Measure (a\n"
    "CrystalDiskMark-style grid for any target, filled in as the suite runs), Ask\n"
    "(advise on drives, a controller and a workload), Compare (saved results side by\n"
    "side) and Watch (a running 'raidlab serve' with a control socket: member states,\n"
    "fail and rebuild).  Every action runs raidlab's own command, shown as its command\n"
    "line.\n"
    "\n"
    "  --port N          the port (default 0: any free port)\n"
    "  --listen ADDR     127.0.0.1 or ::1 (default: both); other addresses are\n"
    "                    refused, since they would need TLS\n"
    "  --ready-file FILE write the page's URL (with its token) to FILE once listening\n"
    "  --no-browser      do not start xdg-open; open the printed URL yourself\n"
    "  --results DIR     keep results in DIR (default: a private folder removed at exit)\n"
    "\n"
    "The URL holds a random token made at start: a request without it, or naming\n"
    "another host than the loopback address, is refused.  Ctrl-C stops the server\n"
    "and any run it started.  docs/ui.md.  Exit status: 0 after Ctrl-C, 1 the server\n"
    "could not start, 2 bad usage.\n";

static int ui_main(int argc, char **argv)
{
	static const struct option longopts[] = {{"port", required_argument, NULL, 'p'},
	                                         {"listen", required_argument, NULL, 'l'},
	                                         {"ready-file", required_argument, NULL, 'r'},
	                                         {"results", required_argument, NULL, 'd'},
	                                         {"no-browser", no_argument, NULL, 'n'},
	                                         {"help", no_argument, NULL, 'h'},
	                                         {NULL, 0, NULL, 0}};
	struct ui_opts o = {0};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || v > 65535 || optarg[0] == '-') {
				cli_error("ui", "--port: expected 0..65535, got '%s'", optarg);
				return 2;
			}
			o.port = (unsigned)v;
			break;
		}
		case 'l':
			o.listen = optarg;
			break;
		case 'r':
			o.ready_file = optarg;
			break;
		case 'd':
			o.results = optarg;
			break;
		case 'n':
			o.no_browser = true;
			break;
		case 'h':
			fputs(ui_usage, stdout);
			return 0;
		default:
			fputs(ui_usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		cli_error("ui", "unexpected argument '%s'", argv[optind]);
		return 2;
	}
	return ui_run(&o);
}

static struct cli_command ui_cmd = {
    .name = "ui",
    .summary = "a local web application: measure, ask, compare, watch a served array",
    .usage = ui_usage,
    .main = ui_main,
};
CLI_COMMAND_REGISTER(ui_cmd)
