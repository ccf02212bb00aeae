/* SPDX-License-Identifier: GPL-2.0-or-later */
/* access(2) modes; F_OK is the 0 value */
XLAT(F_OK)
XLAT(R_OK)
XLAT(W_OK)
XLAT(X_OK)
