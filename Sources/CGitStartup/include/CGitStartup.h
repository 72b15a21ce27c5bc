#ifndef CGITSTARTUP_H
#define CGITSTARTUP_H

/// While set (non-zero), libgit2's start-up does not parse the system's certificate bundle: see
/// GitStartup.c.
void CGitStartup_skipDefaultCertificates(int skipping);

#endif
