// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// What DoorwayToken and DoorwayTetherToken share: metadata fixed at deploy, the whole supply minted to a
/// list of holders, balances and allowances, and the moves between them. Each token adds its own ABI
/// (`transfer`, `approve`, `transferFrom`) on top.
abstract contract TokenLedger {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        for (uint256 i = 0; i < holders.length; i++) {
            balanceOf[holders[i]] += amount;
            totalSupply += amount;
            emit Transfer(address(0), holders[i], amount);
        }
    }

    /// Spends `value` of `from`'s allowance to the caller, then moves it.
    function _transferFrom(address from, address to, uint256 value) internal {
        uint256 allowed = allowance[from][msg.sender];
        // the EIP-20 convention (USDT's too): an allowance of type(uint256).max never decreases
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "ERC20: transfer to the zero address");
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
