// The seed solution of the Wall Making Game (BOJ 11717), the baseline of scripts/bench-solve.sh:
// top-down memoized recursion over sub-rectangles, option values collected in one
// std::vector per call, mex by sorting. Reads `H W` and H rows; prints First or Second.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

static int H, W;
static char board[20][21];
static int memo[21][21][21][21];

static int grundy(int r0, int r1, int c0, int c1) {
    if (r0 >= r1 || c0 >= c1) return 0;
    int &m = memo[r0][r1][c0][c1];
    if (m >= 0) return m;
    std::vector<int> seen;
    for (int i = r0; i < r1; i++)
        for (int j = c0; j < c1; j++)
            if (board[i][j] != 'X')
                seen.push_back(grundy(r0, i, c0, j) ^ grundy(r0, i, j + 1, c1) ^
                               grundy(i + 1, r1, c0, j) ^ grundy(i + 1, r1, j + 1, c1));
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    int mex = 0;
    while (mex < (int)seen.size() && seen[mex] == mex) mex++;
    return m = mex;
}

int main() {
    if (scanf("%d %d", &H, &W) != 2) return 1;
    for (int i = 0; i < H; i++)
        if (scanf("%20s", board[i]) != 1) return 1;
    memset(memo, -1, sizeof memo);
    puts(grundy(0, H, 0, W) ? "First" : "Second");
    return 0;
}
