/*
 * ps_config_port.h - the test port's overrides of ps_config.h (the Makefile builds the unit
 * tests and the fuzz driver with -DPS_CONFIG_PORT and hal/test on the include path).
 * #ifndef around each value: a -D on the command line (or a test file) still wins.
 */
#ifndef PS_CONFIG_PORT_H
#define PS_CONFIG_PORT_H

/* Unit tests check that PS_LOG reaches ps_hal_log; the fuzz driver runs the log path too. */
#ifndef PS_LOG_ENABLE
#define PS_LOG_ENABLE 1
#endif

#endif /* PS_CONFIG_PORT_H */
