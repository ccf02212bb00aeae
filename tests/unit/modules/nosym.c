// SPDX-License-Identifier: GPL-2.0-or-later
/* A shared object without the descriptor symbol. */
int not_a_dio_module(void);

int not_a_dio_module(void)
{
	return 1;
}
