/* The floor for parsing YAML: libyaml's own event parse of a file, with
 * nothing built. `make bench` compares trainforge lint with it. */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	yaml_parser_t p;
	yaml_event_t ev;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	unsigned long events = 0;
	int done = 0;
	while (!done) {
		if (!yaml_parser_parse(&p, &ev))
			break;
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		events++;
	}
	yaml_parser_delete(&p);
	fclose(f);
	printf("%lu events\n", events);
	return 0;
}
