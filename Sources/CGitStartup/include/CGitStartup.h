#ifndef CGITSTARTUP_H
#define CGITSTARTUP_H

/// While set (non-zero), libgit2's start-up does not parse the system's certificate bundle: see
/// GitStartup.c.
void CGitStartup_skipDefaultCertificates(int skipping);

/// How many certificate files the stand-in has refused so far (tests: start-up's one).
int CGitStartup_refusals(void);

#endif
